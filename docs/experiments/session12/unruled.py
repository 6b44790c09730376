import sys, time, pymupdf
from pathlib import Path
pymupdf.no_recommend_layout() if hasattr(pymupdf,'no_recommend_layout') else None
files = sorted((Path(sys.argv[1]) / 'insurance-policies').glob('*.pdf')) + sorted((Path(sys.argv[1]) / 'policies-dev').glob('*.pdf'))
for f in files:
    doc = pymupdf.open(f)
    n=0; t=time.perf_counter(); ex=[]
    for page in doc:
        drawings = len(page.get_drawings())
        if drawings >= 8: continue
        tabs = page.find_tables(strategy="text")
        for tb in tabs.tables:
            rows = tb.extract()
            filled = [[c for c in r if c and c.strip()] for r in rows]
            good = [r for r in filled if len(r) >= 2]
            if len(good) >= 3 and tb.col_count >= 2:
                n += 1
                if len(ex) < 1: ex.append((page.number+1, tb.col_count, len(rows), [' | '.join(x[:40] for x in r) for r in good[:3]]))
    print(f.name[:40], 'pages', len(doc), 'unruled tables', n, f'{time.perf_counter()-t:.1f}s')
    for e in ex: print('    ', e)
