"""A stand-in of llama.cpp's server (``llama-server``, and ``werewolf model serve``):
the OpenAI routes of ``OpenAIStandIn`` plus what llama.cpp adds, from its server
documentation (tools/server/README.md):

- ``GET /props`` answers ``total_slots``;
- a request naming ``id_slot`` runs in that slot, and each slot keeps the prompt it last
  evaluated: the next request there evaluates only what follows the longest common
  prefix (``usage.prompt_tokens_details.cached_tokens`` says how much was reused);
- ``POST /slots/{id}?action=save|restore`` with ``{"filename": ...}`` writes a slot's
  cache to a file in the server's ``--slot-save-path`` or reads one into a slot. Without
  that path both answer 501 ``not_supported_error``; a file name with a path in it is
  400 "Invalid filename"; restoring a missing file is 400.

The prompt is rendered as SmolLM2's ChatML template renders it (``<|im_start|>role``
... ``<|im_end|>``, then the assistant's turn), the text a slot's cache holds; tokens are
the stand-ins' 4 characters each. ``actions`` lists, in order, every slot action and
every completion as ``(kind, slot)``, so a test can tell what reached a slot first.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import respx
from llm_standins import OpenAIStandIn

from agents.llm.vendor_cache import OpenAIUsage, common_prefix, tokens


def chatml(body: dict[str, Any]) -> str:
    """The prompt as the server's template renders it, generation prompt included."""
    out = []
    for m in body.get("messages", []):
        c = m.get("content")
        if isinstance(c, list):
            c = "".join(p.get("text", "") for p in c if isinstance(p, dict))
        out.append(f"<|im_start|>{m.get('role')}\n{c or ''}<|im_end|>\n")
    return "".join(out) + "<|im_start|>assistant\n"


class LlamaCppStandIn(OpenAIStandIn):
    """``OpenAIStandIn`` with llama.cpp's slots, slot files and ``/props``."""

    def __init__(self, router: respx.MockRouter, base_url: str, *, total_slots: int = 8, save_path: bool = True, **kw: Any):
        super().__init__(router, base_url, **kw)
        self.total_slots = total_slots
        self.save_path = save_path  # started with --slot-save-path
        self.slots: dict[int, str] = {}  # slot -> the prompt text its cache holds
        self.files: dict[str, str] = {}  # slot files on the server's disk: name -> text
        self.actions: list[tuple[str, int]] = []
        root = self.base_url.removesuffix("/v1")
        router.get(f"{root}/props").mock(return_value=httpx.Response(200, json={"total_slots": total_slots, "model_alias": "smollm2"}))
        router.post(url__regex=rf"^{re.escape(root)}/slots/(?P<slot>\d+)(\?|$)").mock(side_effect=self._slot_action)

    # ------------------------------------------------------------------ slot files
    def _slot_action(self, request: httpx.Request, slot: str) -> httpx.Response:
        action = request.url.params.get("action", "")
        body = httpx.Response(200, content=request.content).json() if request.content else {}
        name = body.get("filename", "")
        n = int(slot)
        self.actions.append((action, n))
        if not self.save_path:
            return self._refuse(501, "This server does not support slots action. Start it with `--slot-save-path`", "not_supported_error")
        if not isinstance(name, str) or not name or "/" in name or "\\" in name or ".." in name:
            return self._refuse(400, "Invalid filename", "invalid_request_error")
        if action == "save":
            text = self.files[name] = self.slots.get(n, "")
            return httpx.Response(200, json={"id_slot": n, "filename": name, "n_saved": tokens(text) if text else 0})
        if action == "restore":
            if name not in self.files:
                return self._refuse(400, "Unable to restore slot: No available space in KV cache or invalid slot save file", "invalid_request_error")
            self.slots[n] = self.files[name]
            return httpx.Response(200, json={"id_slot": n, "filename": name, "n_restored": tokens(self.files[name])})
        return self._refuse(400, "Invalid action", "invalid_request_error")

    @staticmethod
    def _refuse(code: int, message: str, kind: str) -> httpx.Response:
        return httpx.Response(code, json={"error": {"code": code, "message": message, "type": kind}})

    # ------------------------------------------------------------------ completions
    def _lookup(self, body: dict[str, Any]) -> Any:
        slot = body.get("id_slot", 0)
        text = chatml(body)
        held = self.slots.get(slot, "")
        reused = common_prefix(held, text)
        return OpenAIUsage(text=text, prompt_tokens=tokens(text), cached_tokens=reused // 4, route=str(slot))

    def _commit(self, cached: Any) -> None:
        slot = int(cached.route)
        self.actions.append(("chat", slot))
        self.slots[slot] = cached.text
