"""Every deck shipped in inputs/ is a YAML mapping with a description (a deck the binaries refuse at line 1 once
reached the demo: an unquoted ': ' inside its description)."""
from __future__ import annotations

import unittest
from pathlib import Path

import harness_testing  # noqa: F401  (puts python/ on the path)
import yaml

INPUTS = Path(__file__).resolve().parents[2] / "inputs"


class ShippedDecks(unittest.TestCase):
    def test_every_deck_parses(self):
        decks = sorted(INPUTS.glob("*/*.yaml"))
        self.assertGreater(len(decks), 20)
        for deck in decks:
            with self.subTest(deck=str(deck.relative_to(INPUTS))):
                doc = yaml.safe_load(deck.read_text())
                self.assertIsInstance(doc, dict)
                self.assertIsInstance(doc.get("description"), str)


if __name__ == "__main__":
    unittest.main()
