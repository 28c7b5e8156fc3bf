"""The app and its widgets driven from Python, without a browser."""
