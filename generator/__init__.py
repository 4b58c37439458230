"""The domain: astronomy, calendars, catalogues and the response builders."""
