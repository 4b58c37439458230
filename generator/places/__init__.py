"""Places and their clocks: the city catalogue and its search, time zones, civil days in a zone."""
