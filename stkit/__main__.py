"""`python -m stkit`."""

from stkit.cli.launch import main

if __name__ == "__main__":
    main()
