#include <cstdio>
int main() { std::puts("gqlc " GQL_VERSION); return 0; }
