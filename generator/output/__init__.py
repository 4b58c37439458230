"""Output: calendar files, the crescent map's drawing, the static path scheme."""
