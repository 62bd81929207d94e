"""A screenshot of the page when a browser test fails (var/screenshots/failed-*.png)."""

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        page = item.funcargs.get("page")
        if page is not None:
            page.shot(f"failed-{item.name}", strict=False)
