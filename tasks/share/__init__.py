"""Sharing the built datasets: Hub card metadata, Croissant descriptions, publishing to a Hub."""
