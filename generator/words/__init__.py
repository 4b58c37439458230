"""Words: languages and digits, the glossary, Hijri month and weekday names, the words of pages and feeds, alphabetical order."""
