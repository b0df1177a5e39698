//! Shared drawing helpers for every game's board image. Pure: in-memory images only.
