"""The course around the library: writing it out (`course`), grading its exercises
(`grading`), the offline JupyterLite site (`lite`) and the Voila app (`app`)."""
