"""Cards and boards: the deck and its notation (:mod:`.deck`), dealing and dealers (:mod:`.deal`), a fouled
board's comparison (:mod:`.fouled`) and a layout typed by hand (:mod:`.layout_entry`)."""
