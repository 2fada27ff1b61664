"""The vendor APIs a model seat can speak: OpenAI Chat Completions (and compatible
servers), Anthropic Messages, and any LangChain chat model. Each module imports its
SDK only when used, so a bot-only game never pays for them."""

from agents.llm.backends.base import Backend, CallFailed, CallResult, MissingKey, Prompt, Reply, Turn, Usage

__all__ = ["Backend", "CallFailed", "CallResult", "MissingKey", "Prompt", "Reply", "Turn", "Usage", "make_backend"]


def make_backend(vendor: str, model: str, options=None, **kwargs) -> Backend:
    """``vendor`` is the spec's prefix: ``openai``, ``anthropic`` or ``litellm``
    (``langchain:`` specs build their chat model first: ``agents.llm.make_llm_agent``)."""
    if vendor == "openai":
        from agents.llm.backends.openai_backend import OpenAIBackend

        return OpenAIBackend(model, options, **kwargs)
    if vendor == "anthropic":
        from agents.llm.backends.anthropic_backend import AnthropicBackend

        return AnthropicBackend(model, options, **kwargs)
    if vendor == "litellm":
        from agents.llm.backends.litellm_backend import LiteLLMBackend

        return LiteLLMBackend(model, options, **kwargs)
    raise ValueError(f"unknown model vendor '{vendor}' (known: openai, anthropic, litellm)")
