import sys

try:
    from oddsmith.cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules load: the same one line as later
    sys.stderr.write("oddsmith: interrupted\n")
    sys.exit(130)

sys.exit(main())
