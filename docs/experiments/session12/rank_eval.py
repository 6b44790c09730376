import sys
import json, numpy as np, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / 'scripts')); sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(Path(__file__).parent))
from pool_features import ClauseRanker, FEATURES
asks = [a for a in json.load(open(sys.argv[1])) if not a['not_found']]
def hits(order_fn):
    h1=h5=0
    for a in asks:
        o = order_fn(a); lab = np.array(a['labels'])[o]
        h1 += lab[:1].any(); h5 += lab[:5].any()
    return round(100*h1/len(asks),1), round(100*h5/len(asks),1)
def blend(w):
    def f(a):
        s=np.array(a['score']); top=s.max() or 1
        foc=np.array([x['focus'] for x in a['features']])
        return np.argsort(-((1-w)*s/top + w*foc), kind='stable')
    return f
print('asks', len(asks), 'in pool', sum(any(a['labels']) for a in asks))
for w in [0, 0.2, 0.35, 0.5, 0.7]:
    print('blend', w, hits(blend(w)))
from clausegraph.learn import BoostedTrees

docs = sorted({a['document'] for a in asks})


def leave_one_out(make):
    """Each document's questions ordered by a ranker fitted on the other documents."""
    order = {}
    for d in docs:
        train = [a for a in asks if a['document'] != d]
        ranker = make()
        X = np.vstack([ranker.matrix(a['features']) for a in train])
        y = np.concatenate([a['labels'] for a in train])
        # each question's positives share one unit of weight, its negatives another
        w = np.concatenate([np.where(np.array(a['labels']) == 1, 1 / max(sum(a['labels']), 1),
                                     1 / max(len(a['labels']) - sum(a['labels']), 1))
                            for a in train])
        ranker.fit(X, y, w)
        for a in asks:
            if a['document'] == d:
                order[a['id']] = np.argsort(-ranker.decision_function(
                    ranker.matrix(a['features'])), kind='stable')
    return hits(lambda a: order[a['id']])


for C in [0.1, 1.0]:
    print('LOO logistic C', C, leave_one_out(lambda: ClauseRanker(C=C)))
for params in [dict(max_iter=100, max_leaf_nodes=7), dict(max_iter=300, max_leaf_nodes=15)]:
    print('LOO trees', params, leave_one_out(lambda: BoostedTrees(features=FEATURES, **params)))
