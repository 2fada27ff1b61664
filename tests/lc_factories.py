"""Factories for ``langchain:lc_factories:NAME`` specs in the tests: LangChain's own
fake chat models, as a user's module would return them."""

from __future__ import annotations


def fake_list():
    """LangChain's ``FakeListChatModel``: replies as text, so the tolerant parser reads
    them (a legal-looking abstention for any decision that allows it)."""
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    return FakeListChatModel(responses=['{"action": null, "text": "I listen.", "reasoning": "fake"}'])


def schema_model():
    """A fake provider integration that answers the bound tool legally."""
    from llm_standins import schema_chat_model

    return schema_chat_model(seed=3)


def not_a_model():
    return "hello"


# A model object at module level is taken as it is.
from langchain_core.language_models.fake_chat_models import FakeListChatModel as _F  # noqa: E402

READY = _F(responses=['{"action": null, "text": "ready", "reasoning": "fake"}'])
