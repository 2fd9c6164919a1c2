// proxylab-comm: communication probes (ping-pong, swap/echo pairs, rings, halo protocols, all-to-all, reductions).
#include "src/comm_app.hpp"

int main(int argc, char** argv) { return proxylab::run_app(argc, argv, proxylab::comm::app_spec()); }
