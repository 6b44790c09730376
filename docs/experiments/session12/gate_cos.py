"""Gate rows with an extra feature: MiniLM cosine of the question with the answering line."""
import sys, json
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / 'scripts')); sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(Path(__file__).parent))
import numpy as np
import bench_policies, fit_answer_gate
from clausegraph.config import Settings
from clausegraph.embed import create_embedder
enc = create_embedder(Settings().embedding)
def cos(q, direct):
    if direct is None or not direct.lines: return None
    line = direct.answering_line()
    text = " ".join(l.text for l in direct.lines)
    v = enc.encode([q, line.text, text]); v = v / np.linalg.norm(v, axis=1, keepdims=True)
    return float(v[1] @ v[0]), float(v[2] @ v[0])
orig_judge = bench_policies.judge
def judge(answer, item, whole_words=False):
    r = orig_judge(answer, item, whole_words)
    c = cos(item['question'], answer.direct)
    if answer.direct and answer.direct.gate_features is not None and c:
        answer.direct.gate_features['line_dense'], answer.direct.gate_features['text_dense'] = c
    return r
bench_policies.judge = judge
import bench_cuad_dev
orig_run = bench_cuad_dev.run_asks
def run_asks(graph, contracts, questions, dev, a, b, on_answer=None):
    def keep(ask, answer, outcome):
        c = cos(ask.question.question, answer.direct)
        if answer.direct and answer.direct.gate_features is not None and c:
            answer.direct.gate_features['line_dense'], answer.direct.gate_features['text_dense'] = c
        on_answer(ask, answer, outcome)
    return orig_run(graph, contracts, questions, dev, a, b, on_answer=keep)
bench_cuad_dev.run_asks = run_asks
from pathlib import Path
rows = fit_answer_gate.collect_policies(Path(sys.argv[1])) + fit_answer_gate.collect_cuad(Path(sys.argv[2]), None)
Path(sys.argv[3]).write_text("".join(json.dumps(r) + "\n" for r in rows))
print(len(rows))
