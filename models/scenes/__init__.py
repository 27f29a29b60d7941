"""Photo-like training and evaluation scenes: tiles as 3D bodies rendered by Blender (Cycles).

``plan`` draws a random scene as plain data (pure Python, seeded, testable without Blender);
``blender_scene`` builds and renders a plan inside Blender's Python module (``bpy``, the
``render`` extra, run from its own virtual environment); ``assets`` prepares what Blender reads
(face images, CC0 light probes) in a cache outside the repository; ``photo_effects`` adds what a
phone adds (noise, blur, white balance, JPEG); ``obb_set`` writes the detector's training set.
"""
