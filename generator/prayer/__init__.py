"""Prayer: the solver, the methods, printed timetables, jamaat rules, the qibla, mosque profiles, each place's own defaults."""
