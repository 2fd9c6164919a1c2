// Named run-time choices: one declaration gives the schema's allowed values, the parser and to_string;
// an unknown name is an InputError naming the allowed values (the parsers used to fall back to a default).
#include "proxylab/config.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/named_choice.hpp"
#include "proxylab/testing.hpp"

namespace choice_test {
enum class Colour { red, green, blue };
PROXYLAB_CHOICE_NAMES(Colour, "colour", "red", "green", "blue");
}  // namespace choice_test

using choice_test::Colour;

TEST_CASE("named choice: names, parsing and to_string come from one declaration", "[named_choice]") {
  CHECK(proxylab::choice_names<Colour>() == std::vector<std::string>{"red", "green", "blue"});
  for (const auto& name : proxylab::choice_names<Colour>())
    CHECK(std::string(to_string(proxylab::parse_choice<Colour>(name))) == name);
  CHECK(proxylab::parse_choice<Colour>("blue") == Colour::blue);
  CHECK(std::string(to_string(Colour::green)) == "green");
}

TEST_CASE("named choice: an unknown name throws InputError naming the allowed values", "[named_choice]") {
  CHECK_THROWS_AS(proxylab::parse_choice<Colour>("mauve"), proxylab::InputError);
  CHECK_THROWS_WITH(proxylab::parse_choice<Colour>("mauve"),
                    Catch::Matchers::Contains("colour 'mauve' is unknown; allowed: red, green, blue"));
  CHECK_THROWS_AS(proxylab::parse_choice<Colour>(""), proxylab::InputError);
  CHECK_THROWS_AS(proxylab::parse_choice<Colour>("Red"), proxylab::InputError);
}

TEST_CASE("named choice: the schema's allowed values and the typed read use the declaration", "[named_choice]") {
  proxylab::Schema s;
  s.choice("paint.colour", Colour::green, "the colour");
  const proxylab::ParamSpec* p = s.find("paint.colour");
  REQUIRE(p != nullptr);
  CHECK(p->allowed == proxylab::choice_names<Colour>());
  CHECK(p->default_value == "green");
  CHECK(proxylab::Config(s, "", "").choice<Colour>("paint.colour") == Colour::green);
  CHECK(proxylab::Config(s, "paint: {colour: blue}\n", "deck.yaml").choice<Colour>("paint.colour") == Colour::blue);
  CHECK_THROWS_AS(proxylab::Config(s, "", "", {"paint.colour=mauve"}), proxylab::InputError);
}
