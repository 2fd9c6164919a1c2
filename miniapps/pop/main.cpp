// proxylab-pop: the implicit barotropic solve of the Parallel Ocean Program.
#include "src/pop_app.hpp"

int main(int argc, char** argv) { return proxylab::run_app(argc, argv, proxylab::pop::app_spec()); }
