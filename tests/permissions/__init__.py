"""The permission matrix of every page: each URL pattern of the project, for each kind of visitor.

``pages.PAGES`` holds one permission decision per URL pattern (keyed by the URL name, or by the route where
the pattern has no name), gathered from one table per app (``pages_site``, ``pages_results``,
``pages_director``, ``pages_appeals``, ``pages_table``, ``pages_admin``).
``test_matrix.test_every_url_pattern_has_a_permission_decision`` walks the resolver and fails for a pattern
that is not in the table, so a new page cannot ship without someone deciding who may open it.

Each page is then requested by every role (``world.ROLES``), GET and (where the view accepts it) POST: an
allowed role gets a page (200, a 302 that is not to a login page, or 400 for a refused form), a refused role
gets 403, 404 or a redirect to a login page — never the page, never a server error — and a refused POST
changes nothing in the database. ``test_beyond_the_matrix`` holds what one request a role cannot show
(unpublished results, boards still in play, the table's PIN, objects of another tournament, CSRF).

The data (``world.build``) is the demo tournament with appeals, a ruling, a correction, a committee member,
a generated file and a second tournament with its own director, built once for each test module (and removed
after it) by the fixtures of ``conftest.py``. Every test runs in a transaction that is rolled back, and each
allowed role in a savepoint of its own, so what one POST changes is not seen by the next. The REST API has
its own matrix (tests/api/test_permissions.py).
"""
