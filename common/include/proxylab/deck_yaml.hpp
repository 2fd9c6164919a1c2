// A deck's YAML read as data, never as a weapon: the text is first walked as a stream of parser
// events (no node is built, no alias expanded) and rejected when it is not one document holding a
// mapping tree with plain, unique keys inside the limits below; only then is it loaded and
// flattened to "section.key" entries. Every failure, yaml-cpp's own included, is an InputError
// naming the deck, the line and the column.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace proxylab {

struct DeckLimits {
  static constexpr std::size_t max_bytes = 64 * 1024;  // deck text (real decks: under 4 KiB; yaml-cpp scans a
                                                       // 1 MiB flow list in 3.7 s and 260 MB)
  static constexpr long long max_nodes = 10000;        // YAML nodes once every alias is expanded (real: < 200)
  static constexpr int max_depth = 200;  // nesting of mappings and lists, aliases expanded (real: 2-3); below
                                         // yaml-cpp's own recursion guard (500), which says only "bad file"
};

// One leaf of the deck's mapping tree.
struct DeckEntry {
  std::string key;     // dotted path, "grid.nx"
  std::string value;   // the scalar's text ("" unless scalar)
  bool scalar = true;  // false: a list, a mapping used as a value where none belongs, or an empty value
  int line = 0;        // 1-based position of the value in the deck
  int column = 0;
};

// Reads deck text (non-empty) into its leaves in document order. Mappings nest ("grid: {nx: 1}"
// gives "grid.nx"); lists and nulls are leaves with scalar == false. Throws InputError naming
// deck_name, the line and the column on: invalid YAML, no document or more than one, a key that is
// not a plain scalar (list, mapping, alias, empty), a key given twice (also "grid.nx" beside
// "grid: {nx}"), an alias to a node that contains it, and text, node count or depth beyond DeckLimits.
// The top level must be a mapping.
std::vector<DeckEntry> read_deck_entries(const std::string& text, const std::string& deck_name);

}  // namespace proxylab
