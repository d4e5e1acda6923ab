import sys

from oddsmith.cli import main

sys.exit(main())
