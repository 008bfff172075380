#!/bin/bash
# The dm-ioband admin guide renders without errors or warnings (docutils,
# as make htmldocs would parse it).
set -eu
. "$(dirname "$0")/lib/common.sh"
rst=$TREE/Documentation/admin-guide/device-mapper/dm-ioband.rst
# Debian's python3 has python3-docutils (scripts/deps.sh).
PY3=/usr/bin/python3
[ -x "$PY3" ] || PY3=python3
"$PY3" - "$rst" <<'PY'
import io, sys
import docutils.core
err = io.StringIO()
docutils.core.publish_doctree(open(sys.argv[1]).read(), source_path=sys.argv[1],
    settings_overrides={'warning_stream': err, 'report_level': 2,
                        'halt_level': 5})
msgs = err.getvalue()
sys.stdout.write(msgs)
print("%s: %s" % (sys.argv[1], "renders cleanly" if not msgs else "errors"))
sys.exit(1 if msgs else 0)
PY
