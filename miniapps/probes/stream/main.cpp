// proxylab-stream: STREAM / BabelStream memory bandwidth probe.
#include "src/stream_app.hpp"

int main(int argc, char** argv) { return proxylab::run_app(argc, argv, proxylab::stream::app_spec()); }
