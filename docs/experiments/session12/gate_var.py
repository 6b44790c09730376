import sys, json
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / 'scripts')); sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(Path(__file__).parent))
from pathlib import Path
import fit_answer_gate as F
from clausegraph.answer.gate import FEATURES
rows = [json.loads(l) for l in Path(sys.argv[1]).read_text().splitlines()]
print(sum(1 for r in rows if r['features'] and 'line_dense' in r['features']), 'rows with cos of', len(rows))
print(F.SUMMARY_HEADER)
for name, feats, C in [
    ('shipped features', FEATURES, 1.0),
    ('+ line_dense', (*FEATURES, 'line_dense'), 1.0),
    ('+ text_dense', (*FEATURES, 'text_dense'), 1.0),
    ('+ both', (*FEATURES, 'line_dense', 'text_dense'), 1.0),
    ('+ both C=0.1', (*FEATURES, 'line_dense', 'text_dense'), 0.1),
    ('small: score,cov,type_match,dense_best,line_dense,doc_cov', ('sentence_score','sentence_coverage','document_coverage','type_match','asks_type','dense_best','line_dense'), 1.0),
]:
    print(F.summary_line(name, F.variant(rows, C, feats)))
