"""Policy questions: collect direct-answer candidates, judge each, add MiniLM cosine."""
import sys, json
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / 'scripts')); sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(Path(__file__).parent))
import numpy as np
from bench_policies import load_questions
from bench_answers import states_fact
from clausegraph import ClauseGraph
from clausegraph.answer.sentences import collecting
docs, items = load_questions()
graphs = {f: ClauseGraph.open(str(Path(sys.argv[1]) / f)) for f in ('insurance-policies','policies-dev')}
out = []
for it in items:
    if it.get('not_found'): continue
    for g in graphs.values():
        if it['document'] in [g.index.clauses.document(d).source_path.split('/')[-1] for d in g.index.entries()]:
            break
    with collecting() as rows:
        g.ask(it['question'], documents=[it['document']])
    if not rows: continue
    row = rows[-1]
    texts = [c['text'] for c in row['candidates']]
    if not texts: continue
    vecs = g.embedder.encode([it['question']] + texts)
    vecs = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    cos = vecs[1:] @ vecs[0]
    for c, s in zip(row['candidates'], cos):
        c['cos'] = float(s); c['label'] = int(states_fact(c['text'], it.get('answer', []), True))
    out.append({'id': it['id'], 'question': it['question'], 'candidates': row['candidates']})
json.dump(out, open(sys.argv[2], 'w'))
print(len(out))
