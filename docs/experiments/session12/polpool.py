"""Policy questions: the answer pool with ranking features and gold labels."""
import sys, json, re
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / 'scripts')); sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(Path(__file__).parent))
from bench_policies import load_questions
from bench_answers import normalise
from clausegraph import ClauseGraph
from clausegraph.answer.direct import terms_for
from clausegraph.answer.focus import list_items
from pool_features import ranking_features
docs, items = load_questions()
graphs = {f: ClauseGraph.open(str(Path(sys.argv[1]) / f)) for f in ('insurance-policies','policies-dev')}
names = {f: {g.index.clauses.document(d).source_path.split('/')[-1] for d in g.index.entries()} for f, g in graphs.items()}
out = []
for it in items:
    g = next(graphs[f] for f in graphs if it['document'] in names[f])
    found = g.search(it['question'], [it['document']], top_k=24)
    hits = found.hits
    terms = terms_for(g.index)
    pool = hits + list_items(terms, hits)
    r = g.retriever
    asked = r.last_scope.question if r.last_scope else it['question']
    qt = r.question_types(r.query_vector(asked))
    feats = ranking_features(terms, asked, pool, qt)
    golds = [normalise(x) for x in (it.get('gold') or [])]
    labels = [int(any(gd in normalise(p.clause.text) for gd in golds)) for p in pool]
    out.append({'id': it['id'], 'document': it['document'], 'not_found': bool(it.get('not_found')),
                'score': [p.score for p in pool], 'features': feats, 'labels': labels,
                'ids': [p.clause_id for p in pool]})
json.dump(out, open(sys.argv[2], 'w'))
print(len(out))
