"""Flat 2D tables: the renderer, the overhead camera over it, the data sets and scripted hand
videos drawn from it, and what a camera sees of a simulated hand."""
