"""Files other systems read: the federation file (docs/federation-file.md) and the deal notation
(docs/deal-notation.md). Pure Python, no Django import."""
