"""The front of delivery: what the delivery worker, the limiter and the publisher call, beside
:class:`~storage.usecases.UseCases` (the game's use cases) over the same kernel, as
``uc.delivery``.

Rooms: :mod:`~storage.delivery.outbox` (which places show a match, the rows an action writes
in its own transaction), :mod:`~storage.delivery.work` (the worker's steps on those rows, each
fenced by the place's claim token), :mod:`~storage.delivery.claims` (claims on places),
:mod:`~storage.delivery.notice_work` (what the worker records of a notice) and
:mod:`~storage.delivery.budgets` (the groups' Telegram budgets every instance shares).
"""

from __future__ import annotations

from storage.delivery.budgets import SendBudgetCases
from storage.delivery.claims import ClaimCases
from storage.delivery.notice_work import NoticeCases
from storage.delivery.work import DeliveryWorkCases
from storage.usecases.kernel import Kernel


class DeliveryCases(DeliveryWorkCases, ClaimCases, NoticeCases, SendBudgetCases):
    """Delivery's use cases over the kernel the game's use cases write through."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
