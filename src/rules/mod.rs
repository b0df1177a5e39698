//! Rules pages, in our own words, English and French, embedded from `assets/rules/`.
