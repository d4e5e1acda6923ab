"""The web app's pages, one module each: ``question`` reads the query string into a frozen
question (bad input: :class:`oddsmith.web.forms.BadInput`), ``answer`` calls the analyses the
CLI calls, ``form`` and ``answer_html`` make the HTML, ``pages`` the report pages of the answer
(the printable view and the PDF download); ``PATH``, ``TITLE``, ``SUMMARY`` (the index's
line) and ``SIMULATED`` (its answer runs as a job, its URL carries a seed) describe it."""
