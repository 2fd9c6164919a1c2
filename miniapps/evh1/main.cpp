// proxylab-evh1: PPM Lagrangian-remap hydrodynamics sweeps (EVH1 / VH-1).
#include "src/evh1_app.hpp"

int main(int argc, char** argv) { return proxylab::run_app(argc, argv, proxylab::evh1::app_spec()); }
