import sys
import json, numpy as np
asks = json.load(open(sys.argv[1]))
asks = [a for a in asks if any(c['label'] for c in a['candidates'])]
print(len(asks), 'asks with a positive candidate; mean candidates', np.mean([len(a['candidates']) for a in json.load(open(sys.argv[1]))]))
for w in [0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2, 3, 100]:
    hit = 0
    for a in asks:
        s = [c['features']['hand_score'] + w * c['cos'] for c in a['candidates']]
        hit += a['candidates'][int(np.argmax(s))]['label']
    print(w, hit, round(hit/len(asks),3))
from clausegraph.answer.sentences import active_scorer
sc = active_scorer()
hit=0; hit2=0
for a in asks:
    X = sc.matrix([c['features'] for c in a['candidates']])
    p = sc.predict_proba(X)[:,1]
    hit += a['candidates'][int(np.argmax(p))]['label']
    d = sc.decision_function(X) + 0.0
print('shipped learned scorer', hit, round(hit/len(asks),3))
# oracle-ish: per-feature single best
feats = list(asks[0]['candidates'][0]['features'])
for f in feats + ['cos']:
    hit=0
    for a in asks:
        s=[(c['features'].get(f) if f!='cos' else c['cos']) for c in a['candidates']]
        hit+=a['candidates'][int(np.argmax(s))]['label']
    print(f, hit)
