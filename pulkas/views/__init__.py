"""The pages of pulka events: the director's (``director``), the players' sheet at the table (``table``) and the
public results (``public``). Each area has its URL list (``*_urls``), joined in :mod:`pulkas.urls`."""
