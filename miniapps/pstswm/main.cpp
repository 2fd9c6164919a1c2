// proxylab-pstswm: spectral transform shallow water model (PSTSWM / STSWM).
#include "src/pstswm_app.hpp"

int main(int argc, char** argv) { return proxylab::run_app(argc, argv, proxylab::pstswm::app_spec()); }
