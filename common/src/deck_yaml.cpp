// Defensive reading of a deck's YAML (see deck_yaml.hpp).
#include "proxylab/deck_yaml.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

std::string where(const std::string& deck, const YAML::Mark& mark) {
  std::string w = "deck " + escaped(deck);
  if (!mark.is_null()) w += ": line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1);
  return w;
}

// Walks the parser's events and throws InputError on the first shape or limit violation. Sizes and
// depths of anchored nodes are recorded, so an alias adds what its expansion would add without expanding it.
class ShapeCheck : public YAML::EventHandler {
 public:
  explicit ShapeCheck(const std::string& deck) : deck_(deck) {}
  int documents() const { return documents_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) fail(mark, "a second YAML document (after '---' or '...'); a deck is exactly one document");
    anchors_.clear();
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (at_key()) fail(mark, "an empty or null key (~, null); keys are plain names such as 'grid' or 'nx'");
    leaf(mark, anchor, 1, 0);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    untagged(mark, tag);
    if (at_key()) return key(mark, anchor, value);
    leaf(mark, anchor, 1, 0);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (at_key()) fail(mark, "an alias (*name) as a key; keys are plain names such as 'grid' or 'nx'");
    const Anchored& a = anchors_.at(anchor);  // yaml-cpp rejects undefined aliases before this event
    if (a.open) fail(mark, "an alias to a node that contains it (a cycle); allowed: aliases to complete nodes");
    leaf(mark, 0, a.size, a.depth);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    untagged(mark, tag);
    open(mark, anchor, false);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    untagged(mark, tag);
    open(mark, anchor, true);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

 private:
  struct Collection {
    bool is_map = false;
    bool want_key = true;              // maps: the next node is a key
    std::string key;                   // maps: the key whose value is being read
    std::map<std::string, int> lines;  // maps: keys seen -> line
    YAML::anchor_t anchor = 0;
    long long size = 1;  // nodes in this subtree, aliases expanded
    int depth = 1;       // nesting levels in this subtree, aliases expanded
  };
  struct Anchored {
    long long size = 1;
    int depth = 0;
    bool open = false;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& what) const {
    throw InputError(where(deck_, mark) + ": " + what);
  }
  // A tag (!foo, !!str) would be dropped without a word: nothing in a deck reads one. yaml-cpp gives an untagged
  // node "?" (plain) or "!" (quoted).
  void untagged(const YAML::Mark& mark, const std::string& tag) const {
    if (tag != "?" && tag != "!")
      fail(mark, "a YAML tag " + excerpt(tag) + "; a deck holds plain values (quote a value to keep it text)");
  }
  bool at_key() const { return !stack_.empty() && stack_.back().is_map && stack_.back().want_key; }
  std::string path() const {
    std::string p;
    for (const auto& c : stack_)
      if (c.is_map && !c.want_key) p += (p.empty() ? "" : ".") + c.key;
    return p;
  }

  void count(const YAML::Mark& mark, long long nodes, int depth) {
    nodes_ += nodes;
    if (nodes_ > DeckLimits::max_nodes)
      fail(mark, "more than " + std::to_string(DeckLimits::max_nodes) +
                     " YAML nodes once aliases are expanded; a deck may hold at most " +
                     std::to_string(DeckLimits::max_nodes) + " (real decks hold fewer than 200)");
    if (int(stack_.size()) + depth > DeckLimits::max_depth)
      fail(mark, "nesting deeper than " + std::to_string(DeckLimits::max_depth) +
                     " levels (aliases expanded); a deck may nest at most " + std::to_string(DeckLimits::max_depth) +
                     " mappings or lists");
  }

  void key(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string& name) {
    Collection& map = stack_.back();
    auto [it, fresh] = map.lines.emplace(name, mark.line + 1);
    if (!fresh) {
      const std::string p = path();
      fail(mark, "key " + excerpt(p.empty() ? name : p + "." + name) + " given twice (first at line " +
                     std::to_string(it->second) + "); allowed: each key once");
    }
    map.key = name;
    leaf(mark, anchor, 1, 0);  // counts the key node; the map now waits for its value
  }

  // A complete node of `size` nodes and `depth` levels (scalar, null or alias) at the current position.
  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, long long size, int depth) {
    count(mark, size, depth);
    if (anchor) anchors_[anchor] = {size, depth, false};
    finish(size, depth);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, bool is_map) {
    if (at_key())
      fail(mark, std::string("a ") + (is_map ? "mapping" : "list") +
                     " as a key; keys are plain names such as 'grid' or 'nx'");
    count(mark, 1, 1);
    if (anchor) anchors_[anchor] = {0, 0, true};
    Collection c;
    c.is_map = is_map;
    c.anchor = anchor;
    stack_.push_back(std::move(c));
  }

  void close() {
    const Collection done = std::move(stack_.back());
    stack_.pop_back();
    if (done.anchor) anchors_[done.anchor] = {done.size, done.depth, false};
    finish(done.size, done.depth);
  }

  // Adds a finished child to the enclosing collection; in a map, a finished value makes the next node a key.
  void finish(long long size, int depth) {
    if (stack_.empty()) return;
    Collection& parent = stack_.back();
    parent.size += size;
    parent.depth = std::max(parent.depth, depth + 1);
    if (parent.is_map) parent.want_key = !parent.want_key;
  }

  std::string deck_;
  std::vector<Collection> stack_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  long long nodes_ = 0;
  int documents_ = 0;
};

void flatten(const YAML::Node& node, const std::string& prefix, const std::string& deck,
             std::map<std::string, int>& lines, std::vector<DeckEntry>& out) {
  for (const auto& kv : node) {
    const std::string key = prefix.empty() ? kv.first.Scalar() : prefix + "." + kv.first.Scalar();
    const YAML::Mark mark = kv.second.Mark();
    if (kv.second.IsMap()) {
      flatten(kv.second, key, deck, lines, out);
      continue;
    }
    auto [it, fresh] = lines.emplace(key, mark.line + 1);
    if (!fresh)
      throw InputError(where(deck, mark) + ": key " + excerpt(key) + " given twice (first at line " +
                       std::to_string(it->second) + ", as a nested or a dotted key); allowed: each key once");
    DeckEntry e;
    e.key = key;
    e.scalar = kv.second.IsScalar();
    if (e.scalar) e.value = kv.second.Scalar();
    e.line = mark.line + 1;
    e.column = mark.column + 1;
    out.push_back(std::move(e));
  }
}

}  // namespace

std::vector<DeckEntry> read_deck_entries(const std::string& text, const std::string& deck_name) {
  if (text.size() > DeckLimits::max_bytes)
    throw InputError(where(deck_name, YAML::Mark::null_mark()) + ": " + std::to_string(text.size()) +
                     " bytes; a deck may hold at most " + std::to_string(DeckLimits::max_bytes) + " bytes");
  std::vector<DeckEntry> entries;
  try {
    {
      std::istringstream in(text);
      YAML::Parser parser(in);
      ShapeCheck check(deck_name);
      while (parser.HandleNextDocument(check)) {
      }
      if (check.documents() == 0)
        throw InputError(where(deck_name, YAML::Mark::null_mark()) +
                         ": holds no YAML document (the file is empty or only comments); "
                         "allowed: a mapping of sections such as 'grid: {nx: 64}'");
    }
    const YAML::Node root = YAML::Load(text);
    if (!root.IsMap())
      throw InputError(where(deck_name, root.Mark()) +
                       ": the top level must be a mapping of sections (e.g. 'grid: {nx: 64}')");
    std::map<std::string, int> lines;
    flatten(root, "", deck_name, lines, entries);
  } catch (const YAML::Exception& e) {
    throw InputError(where(deck_name, e.mark) + ": not valid YAML: " + e.msg);
  }
  return entries;
}

}  // namespace proxylab
