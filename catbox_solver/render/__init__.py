"""Pictures of a position: plain text, SVG, and the printable HTML puzzle sheet."""
