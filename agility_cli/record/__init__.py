"""The game file: line format, verification, storage, trust (handshake, signatures, keys), mail input."""
