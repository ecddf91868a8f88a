# Writes a Relay text file as a C++ string literal (the prelude, included by
# Importer.cpp; the ONNX importer's Sequences.rly).
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}" "R\"relay_prelude(${text})relay_prelude\"\n")
