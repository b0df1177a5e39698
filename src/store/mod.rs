//! The only module that knows SQL.
