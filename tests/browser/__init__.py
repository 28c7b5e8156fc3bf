"""The app in a real browser (Voilà and Debian's Chromium through Playwright)."""
