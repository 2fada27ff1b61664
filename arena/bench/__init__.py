"""``werewolf bench``: one model against a fixed, versioned protocol, one number on a shared scale."""
