"""The compiled build's listing of a byte mask's legal actions (``native_masks.c``; see
``core.masks``)."""

def marked(mask: bytes | bytearray) -> list[int]: ...
