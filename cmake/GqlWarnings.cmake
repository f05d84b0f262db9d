# gql_set_warnings(target): the project's warning set; errors when GQL_WERROR is on (CI).
function(gql_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow=local -Wno-unknown-pragmas>
    # GCC 12 reports false -Wrestrict errors inside std::string concatenation at -O3 (GCC PR 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${GQL_WERROR}>>:-Werror>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${GQL_WERROR}>>:-Werror=all-warnings>)
endfunction()
