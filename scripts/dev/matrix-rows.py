#!/usr/bin/env python3
"""Print the device matrix's classes (the dev_classes[] initialisers of
drivers/md/tests/dm-ioband-estimate_kunit.c), one initialiser a line, as
scripts/dev/matrix-sweep.sh takes rows; with NAME_REGEX, only the classes
whose .name it matches (re.search).

    scripts/dev/matrix-rows.py KUNIT_C [NAME_REGEX]
"""
import re
import sys

src = open(sys.argv[1]).read()
head = 'static const struct dev_class dev_classes[] = {\n'
i = src.index(head) + len(head)
rows = []
for line in src[i:src.index('\n};\n', i)].split('\n'):
    if line.startswith('\t{') or not rows:
        rows.append('\t' + line.strip())
    else:
        rows[-1] += ' ' + line.strip()
if len(sys.argv) > 2:
    pat = re.compile(sys.argv[2])
    rows = [r for r in rows
            if pat.search(re.search(r'\.name = "([^"]*)"', r).group(1))]
    if not rows:
        sys.exit('matrix-rows.py: no class matches ' + sys.argv[2])
print('\n'.join(rows))
