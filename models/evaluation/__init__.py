"""Evaluating perception: the detector report, hands and videos read back, real photos, and wins
scored from the camera alone."""
