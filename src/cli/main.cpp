#include "cli/shell.hpp"

int main(int argc, char** argv) { return kestrel::cli::run_main(argc, argv); }
