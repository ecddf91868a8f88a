# Writes the prelude as a C++ string literal (included by Importer.cpp).
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}" "R\"relay_prelude(${text})relay_prelude\"\n")
