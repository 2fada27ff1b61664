"""LangChain's provider ids (as ``init_chat_model`` spells them) that a
``langchain:PROVIDER:MODEL`` spec may name, with the package, module and class each
one is built from.

The table lives with the transcripts because a transcript's reader needs it too:
``transcripts.coverage`` tells a provider spec (whose calls must name its MODEL)
from a ``langchain:MODULE:FACTORY`` spec (whose model the spec does not name), and
a reader of game records must not load the agents that played them. The agents'
side, which builds the classes, is ``agents.llm.langchain_spec``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provider:
    package: str  # what to pip install
    module: str
    cls: str


PROVIDERS: dict[str, Provider] = {
    "openai": Provider("langchain-openai", "langchain_openai", "ChatOpenAI"),
    "azure_openai": Provider("langchain-openai", "langchain_openai", "AzureChatOpenAI"),
    "anthropic": Provider("langchain-anthropic", "langchain_anthropic", "ChatAnthropic"),
    "google_genai": Provider("langchain-google-genai", "langchain_google_genai", "ChatGoogleGenerativeAI"),
    "google_vertexai": Provider("langchain-google-vertexai", "langchain_google_vertexai", "ChatVertexAI"),
    "bedrock": Provider("langchain-aws", "langchain_aws", "ChatBedrock"),
    "bedrock_converse": Provider("langchain-aws", "langchain_aws", "ChatBedrockConverse"),
    "mistralai": Provider("langchain-mistralai", "langchain_mistralai", "ChatMistralAI"),
    "groq": Provider("langchain-groq", "langchain_groq", "ChatGroq"),
    "ollama": Provider("langchain-ollama", "langchain_ollama", "ChatOllama"),
    "fireworks": Provider("langchain-fireworks", "langchain_fireworks", "ChatFireworks"),
    "together": Provider("langchain-together", "langchain_together", "ChatTogether"),
    "cohere": Provider("langchain-cohere", "langchain_cohere", "ChatCohere"),
    "deepseek": Provider("langchain-deepseek", "langchain_deepseek", "ChatDeepSeek"),
    "xai": Provider("langchain-xai", "langchain_xai", "ChatXAI"),
    "perplexity": Provider("langchain-perplexity", "langchain_perplexity", "ChatPerplexity"),
    "nvidia": Provider("langchain-nvidia-ai-endpoints", "langchain_nvidia_ai_endpoints", "ChatNVIDIA"),
    "ibm": Provider("langchain-ibm", "langchain_ibm", "ChatWatsonx"),
}
