"""A job cancelled while the bot stops is not logged as an error; any other error of a job is
(``bot.ops.logjson.CancelledJobs``, on APScheduler's executor logger)."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest

from bot.ops.logjson import CancelledJobs


def record(exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        info = sys.exc_info()
    return logging.LogRecord("apscheduler.executors.default", logging.ERROR, __file__, 1,
                             'Job "delivery" raised an exception', None, info)


def test_a_job_cancelled_by_the_stop_is_not_an_error(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("apscheduler.executors.default.test")
    logger.addFilter(CancelledJobs())
    with caplog.at_level(logging.INFO, logger=logger.name):
        logger.handle(record(asyncio.CancelledError()))
        logger.handle(record(RuntimeError("the database is gone")))
    assert [r.exc_info[1].__class__.__name__ for r in caplog.records if r.exc_info] == [
        "RuntimeError"]
