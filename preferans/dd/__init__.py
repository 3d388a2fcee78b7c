"""Double-dummy analysis of preferans positions (formats.md §8): the position model, a plain reference search
and the fast exact solver. Pure Python, no Django."""
