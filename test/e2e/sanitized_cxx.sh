#!/bin/sh
# The host compiler $GQL_SANITIZED_CXX with UBSan on and every report fatal, for gqlc -o through
# GQL_CXX: a program built so stops at the first undefined operation its generated code performs.
exec "$GQL_SANITIZED_CXX" -fsanitize=undefined -fsanitize=float-cast-overflow -fno-sanitize-recover=all "$@"
